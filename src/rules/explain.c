/* Explain: lines of pieces as paths with the joins they cross, attacks on a
 * cell, and the reason a move text is not a legal move. Everything is read
 * from the variant's tables (steps, their frame transforms, pawn and castling
 * tables); nothing here recomputes the board's geometry. No I/O: results go
 * to caller-owned structs and buffers. */
#include "internal.h"
#include "topochess_explain.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- joins */

int tc_step_joins(const tc_variant *v, int cell, int dir)
{
    if (!v || cell < 0 || cell >= v->ncells || dir < 0 || dir > 7)
        return 0;
    int to = v->step_to[cell][dir];
    if (to < 0)
        return 0;
    int tf = v->step_tf[cell][dir], W = v->W;
    int x = cell % W, y = cell / W, nx = to % W, ny = to / W;
    int joins = 0;
    if (tf & 2)
        joins |= TC_JOIN_FOLD;
    else if (tf & 1)
        joins |= TC_JOIN_TWIST;
    /* undo the recorded mirror to see which file the step reached first */
    int ux = (tf & 1) ? W - 1 - nx : nx;
    if (ux != x + tc_dir_dx[dir])
        joins |= TC_JOIN_FILE;
    if (!(tf & 2) && ny != y + tc_dir_dy[dir])
        joins |= TC_JOIN_RANK;
    return joins;
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

static const char *colour_name(int colour) { return colour == TC_WHITE ? "white" : "black"; }

/* Appends to a message buffer, never past its end. */
static void appendf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void appendf(char *buf, size_t n, const char *fmt, ...)
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
                appendf(buf, n, "%s%s", buf[0] ? " " : "", tc_join_marker(join_order[k]));
        appendf(buf, n, "%s%s", buf[0] ? " " : "", cell);
    }
    if (path->truncated)
        appendf(buf, n, " ...");
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

/// Where generated lines go: a set (may be NULL) and/or the first one.
typedef struct {
    tc_path_set *set;
    tc_path *first;
    int found;
} sink;

static void sink_add(sink *s, const tc_path *pa)
{
    if (s->set) {
        for (int i = 0; i < s->set->count; i++)
            if (same_cells(&s->set->paths[i], pa))
                return; /* e.g. two king steps that land on one cell */
        if (s->set->count < TC_PATHS_MAX)
            s->set->paths[s->set->count++] = *pa;
        s->set->total++;
    }
    if (s->first && !s->found)
        *s->first = *pa;
    s->found++;
}

/// What a line generator is asked for: the board it reads (NULL: an empty
/// board), the mode, and an optional target that ends every line.
typedef struct {
    const tc_position *p;
    const uint8_t *board;
    int mode;   /* TC_LINES_MOVES or TC_LINES_ATTACKS */
    int target; /* -1: whole lines */
} line_query;

static int occupant(const line_query *q, int cell) { return q->board ? q->board[cell] : 0; }

static void gen_ray(const line_query *q, int piece, int from, int dir, sink *s)
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
        sink_add(s, &pa);
}

/* One line of a short mover, kept when it ends on the target (if any). */
static void emit_short(const line_query *q, tc_path *pa, sink *s)
{
    if (q->target >= 0) {
        if (!pa->len || pa->cells[pa->len - 1] != q->target)
            return;
        pa->end = TC_END_TARGET;
    }
    sink_add(s, pa);
}

static int blocked_by_own(const line_query *q, int colour, int cell)
{
    int occ = occupant(q, cell);
    return q->mode == TC_LINES_MOVES && occ && TC_COLOUR(occ) == colour;
}

static void gen_king(const line_query *q, int piece, int from, sink *s)
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

static void gen_knight(const line_query *q, int piece, int from, sink *s)
{
    const tc_variant *v = q->p->v;
    for (int d = 0; d < 8; d += 2) {
        int c1 = v->step_to[from][d];
        if (c1 < 0)
            continue;
        int tf = v->step_tf[from][d];
        for (int side = -1; side <= 1; side += 2) {
            /* the outward diagonal in the frame reached by the first step,
             * as the leap tables are built */
            int dx = tc_dir_dx[d] + (tc_dir_dx[d] == 0 ? side : 0);
            int dy = tc_dir_dy[d] + (tc_dir_dy[d] == 0 ? side : 0);
            if (tf & 1)
                dx = -dx;
            if (tf & 2)
                dy = -dy;
            int dd = tc_dir_index(dx, dy);
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

static void gen_pawn(const line_query *q, int piece, int from, sink *s)
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
static void gen_lines(const line_query *q, int piece, int from, sink *s)
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
    line_query q = {p, p->board, TC_LINES_ATTACKS, cell};
    sink s = {out, NULL, 0};
    BITS_FOREACH(from, p->occ[colour], {
        if (from != cell)
            gen_lines(&q, p->board[from], from, &s);
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
    line_query q = {p, p->board, mode, -1};
    sink s = {out, NULL, 0};
    gen_lines(&q, p->board[cell], cell, &s);
    return out->total;
}

/* The castling king's cells along its back rank (plain file letters). */
static void castle_path(const tc_position *p, int colour, int side, tc_path *out)
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
        castle_path(p, colour, kind == TC_MOVE_CASTLE_Q, out);
        return 0;
    }
    line_query q = {p, p->board, TC_LINES_MOVES, to};
    sink s = {NULL, out, 0};
    gen_lines(&q, p->board[from], from, &s);
    return s.found ? 0 : -1;
}

/* ---------------------------------------------------------------- reasons */

/* "bishop c8 via b9 a10 ~ h11 = b12 c13 d14 | e1; rook ..." and the
 * legend of the joins used. */
static void attackers_text(const tc_variant *v, const tc_path_set *set, char *buf, size_t n)
{
    int joins = 0;
    for (int i = 0; i < set->count; i++) {
        char cell[8], path[400];
        const tc_path *pa = &set->paths[i];
        tc_cell_name(v, pa->from, cell);
        tc_path_text(v, pa, path, sizeof path);
        appendf(buf, n, "%s%s %s via %s", i ? "; " : "", tc_piece_name(pa->piece), cell, path);
        joins |= pa->joins_all;
    }
    if (set->total > set->count)
        appendf(buf, n, "; and %d more", set->total - set->count);
    if (joins) {
        char legend[96];
        tc_join_legend(joins, legend, sizeof legend);
        appendf(buf, n, " (%s)", legend);
    }
}

static void moves_text(const tc_position *p, const tc_move *moves, int n, char *buf, size_t size)
{
    for (int i = 0; i < n; i++) {
        char san[32];
        tc_move_to_san(p, moves[i], san);
        appendf(buf, size, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", san);
    }
}

static void set_why(tc_explanation *out, tc_why why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_why(tc_explanation *out, tc_why why, const char *fmt, ...)
{
    out->why = why;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message, sizeof out->message, fmt, ap);
    va_end(ap);
}

/* A hint for a text that is no move at all; returns 1 when the hint names
 * the mistake, 0 for the general one. */
static int syntax_hint(const tc_position *p, const char *s, char *hint, size_t n)
{
    const tc_variant *v = p->v;
    tc_san_parts sp;
    tc_error e;
    char alt[64];
    snprintf(alt, sizeof alt, "%s", s);
    if (strchr("nbrqk", alt[0]) && alt[0]) {
        alt[0] = (char)toupper((unsigned char)alt[0]);
        if (tc_san_split(v, alt, alt, &sp, &e) == 0) {
            snprintf(hint, n, "pieces are upper case: '%s'", alt);
            return 1;
        }
    }
    snprintf(alt, sizeof alt, "%s", s);
    int changed = 0;
    for (char *c = alt; *c; c++)
        if (*c >= 'A' && *c <= 'A' + v->W - 1 && !(c == alt && strchr("NBRQK", *c))) {
            *c = (char)tolower((unsigned char)*c);
            changed = 1;
        }
    if (changed && tc_san_split(v, alt, alt, &sp, &e) == 0) {
        snprintf(hint, n, "files are lower case: '%s'", alt);
        return 1;
    }
    /* a letter and a number that name no cell of this board */
    for (const char *c = s; *c; c++)
        if (isalpha((unsigned char)*c) && isdigit((unsigned char)c[1])) {
            int r = atoi(c + 1);
            int file = tolower((unsigned char)*c) - 'a';
            if (file >= v->W || r < 1 || r > v->H) {
                snprintf(hint, n, "this board has files a-%c and ranks 1-%d", 'a' + v->W - 1, v->H);
                return 1;
            }
        }
    snprintf(hint, n,
             "write a move as SAN (e4, Nf3, exd5, O-O, e8=Q) or as coordinates (e2e4, e7e8q); "
             "pieces are upper case (N B R Q K), files lower case");
    return 0;
}

/* The reason castling on `side` (0 kingside, 1 queenside) is impossible. */
static void explain_castle(const tc_position *p, int side, tc_explanation *out)
{
    const tc_variant *v = p->v;
    int us = p->side, them = !us;
    const char *name = side ? "queenside (O-O-O)" : "kingside (O-O)";
    char cell[8], cell2[8];
    out->piece = TC_PIECE(us, TC_KING);
    if (!v->castle_ok[us]) {
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: this board's setup has no %s king on file e with rooks on files a and h",
                name, colour_name(us));
        return;
    }
    int k = v->castle_king[us], r = v->castle_rook[us][side];
    out->from = k;
    out->to = v->castle_king_to[us][side];
    tc_cell_name(v, k, cell);
    tc_cell_name(v, r, cell2);
    if (p->board[k] != TC_PIECE(us, TC_KING)) {
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: the king is not on %s", name, cell);
        return;
    }
    if (p->board[r] != TC_PIECE(us, TC_ROOK)) {
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: there is no %s rook on %s", name, colour_name(us), cell2);
        return;
    }
    if (!(p->castle & (1 << (us * 2 + side)))) {
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: the right is lost (the king or the rook on %s has moved)",
                name, cell2);
        return;
    }
    BITS_FOREACH(c, v->castle_empty[us][side], {
        if (p->board[c] && out->why != TC_WHY_CANNOT_CASTLE) {
            tc_cell_name(v, c, cell);
            set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: %s is not empty (%s %s)", name, cell,
                    colour_name(TC_COLOUR(p->board[c])), tc_piece_name(p->board[c]));
        }
    })
    if (out->why == TC_WHY_CANNOT_CASTLE)
        return;
    char text[480] = "";
    const int *safe = v->castle_safe[us][side];
    const char *what[3] = {"the king is in check", "the king would pass", "the king would land on"};
    for (int i = 0; i < 3; i++) {
        int c = safe[i];
        tc_position *q = NULL;
        const tc_position *judge = p;
        if (i == 2) {
            /* the landing cell is judged on the position after castling */
            q = tc_position_clone(p);
            if (!q)
                break;
            tc_make_move(q, TC_MOVE_MAKE(k, c, 0, side ? TC_MOVE_CASTLE_Q : TC_MOVE_CASTLE_K));
            judge = q;
        }
        int n = tc_attack_paths(judge, c, them, &out->attackers);
        if (n > 0) {
            out->king = c;
            attackers_text(v, &out->attackers, text, sizeof text);
            tc_cell_name(v, c, cell);
            if (i == 0)
                set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: %s: %s", name, what[i], text);
            else
                set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: %s %s, attacked by %s", name, what[i], cell, text);
        }
        tc_position_free(q);
        if (n > 0)
            return;
    }
    set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s here", name);
}

/* A pseudo move of the piece on `from` to `to` (for the king-safety test):
 * the kind a legal move there would have. */
static tc_move pseudo_move(const tc_position *p, int from, int to, int promo)
{
    const tc_variant *v = p->v;
    int us = p->side, kind = TC_MOVE_NORMAL;
    if (TC_TYPE(p->board[from]) == TC_PAWN) {
        if (to == v->push2[us][from] && to != v->push1[us][from])
            kind = TC_MOVE_DOUBLE;
        else if (to == p->ep && !p->board[to] && to != v->push1[us][from])
            kind = TC_MOVE_EP;
        if (bits_has(&v->promo_cells[us], to) && !promo)
            promo = TC_QUEEN;
    } else {
        promo = 0;
    }
    return TC_MOVE_MAKE(from, to, promo, kind);
}

/* "the knight on g1" */
static void piece_on(const tc_position *p, int cell, char *buf, size_t n)
{
    char name[8];
    tc_cell_name(p->v, cell, name);
    snprintf(buf, n, "the %s on %s", tc_piece_name(p->board[cell]), name);
}

/* The piece on `from` reaches `to` by its lines but the move is illegal:
 * find what attacks the king afterwards. */
static void explain_king_attacked(const tc_position *p, int from, int to, int promo, tc_explanation *out)
{
    const tc_variant *v = p->v;
    int us = p->side;
    tc_move m = pseudo_move(p, from, to, promo);
    out->move = m;
    out->from = from;
    out->to = to;
    out->piece = p->board[from];
    char who[48], dest[8], kc[8], text[480] = "";
    piece_on(p, from, who, sizeof who);
    tc_cell_name(v, to, dest);
    tc_position *q = tc_position_clone(p);
    if (!q) {
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: it would leave the king attacked", who, dest);
        return;
    }
    tc_make_move(q, m);
    out->king = q->king[us];
    tc_cell_name(v, out->king, kc);
    tc_attack_paths(q, out->king, !us, &out->attackers);
    attackers_text(v, &out->attackers, text, sizeof text);
    if (TC_TYPE(out->piece) == TC_KING)
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: %s is attacked by %s", who, dest, dest, text);
    else if (tc_in_check(p))
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: that does not answer the check, the %s king on %s stays attacked by %s",
                who, dest, colour_name(us), kc, text);
    else
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: it would expose the %s king on %s to %s",
                who, dest, colour_name(us), kc, text);
    tc_position_free(q);
}

/* Why the piece on `from` has no line to `to`: a blocker on its empty-board
 * line, the own piece on the target, a pawn's empty capture cell. */
static void explain_unreachable(const tc_position *p, int from, int to, tc_explanation *out, char *why, size_t n)
{
    const tc_variant *v = p->v;
    int piece = p->board[from], us = TC_COLOUR(piece);
    char name[8], tname[8];
    tc_cell_name(v, to, tname);
    if (p->board[to] && TC_COLOUR(p->board[to]) == us) {
        snprintf(why, n, "%s holds a %s %s", tname, colour_name(us), tc_piece_name(p->board[to]));
        return;
    }
    /* the same lines on an empty board: does any lead there? */
    line_query q = {p, NULL, TC_LINES_MOVES, to};
    sink s = {NULL, &out->blocked, 0};
    gen_lines(&q, piece, from, &s);
    if (!s.found) {
        out->blocked.len = 0;
        if (TC_TYPE(piece) == TC_PAWN) {
            line_query qa = {p, p->board, TC_LINES_ATTACKS, to};
            tc_path tmp;
            sink sa = {NULL, &tmp, 0};
            gen_lines(&qa, piece, from, &sa);
            if (sa.found)
                snprintf(why, n, "a pawn moves diagonally only to capture, and %s is empty", tname);
        }
        return;
    }
    for (int i = 0; i + 1 < out->blocked.len; i++) {
        int c = out->blocked.cells[i];
        if (p->board[c]) {
            char path[400];
            tc_cell_name(v, from, name);
            tc_path_text(v, &out->blocked, path, sizeof path);
            out->blocker = c;
            out->blocked.len = i + 1;
            char cn[8];
            tc_cell_name(v, c, cn);
            snprintf(why, n, "its line %s %s is blocked by the %s %s on %s", name, path,
                     colour_name(TC_COLOUR(p->board[c])), tc_piece_name(p->board[c]), cn);
            return;
        }
    }
    /* only the push cells: a pawn's two-step needs the first cell empty too */
}

int tc_explain_move(const tc_position *p, const char *text, tc_explanation *out)
{
    memset(out, 0, sizeof *out);
    out->from = out->to = out->king = out->blocker = -1;
    if (!p) {
        set_why(out, TC_WHY_SYNTAX, "no position");
        return -1;
    }
    const tc_variant *v = p->v;
    int us = p->side;
    if (!text || !*text) {
        set_why(out, TC_WHY_SYNTAX, "empty move");
        return -1;
    }
    if (strlen(text) > 40) {
        set_why(out, TC_WHY_SYNTAX, "move text too long: '%.20s...'", text);
        return -1;
    }
    out->status = tc_position_status(p);
    if (out->status != TC_ONGOING) {
        if (out->status == TC_CHECKMATE)
            set_why(out, TC_WHY_GAME_OVER, "the game is over: checkmate, %s wins", us ? "White" : "Black");
        else
            set_why(out, TC_WHY_GAME_OVER, "the game is over: %s", tc_status_text(out->status));
        return -1;
    }
    tc_error err;
    tc_move m;
    if (tc_move_parse(p, text, &m, &err) == 0) {
        out->why = TC_WHY_LEGAL;
        out->move = m;
        out->from = TC_MOVE_FROM(m);
        out->to = TC_MOVE_TO(m);
        out->piece = p->board[out->from];
        return 0;
    }
    char s[64];
    size_t n = 0;
    for (const char *c = text; *c && n < sizeof s - 1; c++)
        if (!strchr("+#!?", *c) && !isspace((unsigned char)*c))
            s[n++] = *c;
    s[n] = '\0';
    int side;
    if (n && tc_castle_text(s, &side)) {
        explain_castle(p, side, out);
        return -1;
    }
    tc_san_parts sp;
    if (!n || tc_san_split(v, s, text, &sp, &err)) {
        char hint[200];
        if (syntax_hint(p, s, hint, sizeof hint))
            set_why(out, TC_WHY_SYNTAX, "'%s' is not a move: %s", text, hint);
        else
            set_why(out, TC_WHY_SYNTAX, "%s; %s", n ? err.msg : "not a move", hint);
        return -1;
    }
    out->to = sp.to;
    int lettered = strchr("NBRQKP", s[0]) != NULL;
    int coord = !lettered && sp.from_file >= 0 && sp.from_rank >= 0;
    int fromc = sp.from_file >= 0 && sp.from_rank >= 0 && sp.from_rank < v->H ? sp.from_rank * v->W + sp.from_file : -1;
    char cell[8], dest[8];
    tc_cell_name(v, sp.to, dest);

    /* the king's two-cell move or king-takes-own-rook in coordinates */
    if (coord && fromc >= 0 && fromc == v->castle_king[us] && v->castle_ok[us] &&
        p->board[fromc] == TC_PIECE(us, TC_KING)) {
        for (int sd = 0; sd < 2; sd++) {
            int plain = 0;
            for (int i = 0; i < v->nking[fromc]; i++)
                plain |= v->king[fromc][i] == sp.to;
            if (sp.to == v->castle_rook[us][sd] || (sp.to == v->castle_king_to[us][sd] && !plain)) {
                explain_castle(p, sd, out);
                return -1;
            }
        }
    }

    /* the pieces the text can mean */
    int cand[TC_MAX_CELLS], ncand = 0;
    if (coord) {
        tc_cell_name(v, fromc, cell);
        if (fromc < 0 || !p->board[fromc]) {
            set_why(out, TC_WHY_NO_PIECE, "there is no piece on %s", fromc < 0 ? "that cell" : cell);
            out->from = fromc;
            return -1;
        }
        out->from = fromc;
        out->piece = p->board[fromc];
        if (TC_COLOUR(p->board[fromc]) != us) {
            set_why(out, TC_WHY_NOT_YOURS, "the %s on %s is %s's, and %s is to move", tc_piece_name(p->board[fromc]),
                    cell, us ? "White" : "Black", us ? "Black" : "White");
            return -1;
        }
        cand[ncand++] = fromc;
    } else {
        BITS_FOREACH(c, p->pieces[TC_PIECE(us, sp.type)], {
            if ((sp.from_file < 0 || c % v->W == sp.from_file) && (sp.from_rank < 0 || c / v->W == sp.from_rank))
                cand[ncand++] = c;
        })
        out->piece = TC_PIECE(us, sp.type);
        if (!ncand) {
            char where[24] = "";
            if (sp.from_file >= 0 && sp.from_rank >= 0)
                snprintf(where, sizeof where, " on %c%d", 'a' + sp.from_file, sp.from_rank + 1);
            else if (sp.from_file >= 0)
                snprintf(where, sizeof where, " on file %c", 'a' + sp.from_file);
            else if (sp.from_rank >= 0)
                snprintf(where, sizeof where, " on rank %d", sp.from_rank + 1);
            set_why(out, TC_WHY_NO_PIECE, "%s has no %s%s", us ? "Black" : "White", tc_piece_name(sp.type), where);
            return -1;
        }
        if (ncand == 1)
            out->from = cand[0];
    }

    /* legal moves of those pieces: to the cell, and anywhere */
    tc_movelist *list = malloc(sizeof *list);
    if (!list) {
        set_why(out, TC_WHY_SYNTAX, "out of memory");
        return -1;
    }
    int nl = tc_generate_legal(p, list);
    int exact = 0, promo_alt = 0, plain_alt = 0;
    for (int i = 0; i < nl; i++) {
        tc_move lm = list->moves[i];
        int f = TC_MOVE_FROM(lm), k = TC_MOVE_KIND(lm);
        int mine = 0;
        for (int c = 0; c < ncand; c++)
            mine |= cand[c] == f;
        if (!mine || k == TC_MOVE_CASTLE_K || k == TC_MOVE_CASTLE_Q || TC_MOVE_TO(lm) != sp.to)
            continue;
        if (TC_MOVE_PROMO(lm) == sp.promo) {
            if (exact < TC_EXPLAIN_CANDIDATES)
                out->candidates[exact] = lm;
            exact++;
        } else if (TC_MOVE_PROMO(lm)) {
            promo_alt++;
        } else {
            plain_alt++;
        }
    }
    if (exact > 1) {
        out->ncandidates = exact < TC_EXPLAIN_CANDIDATES ? exact : TC_EXPLAIN_CANDIDATES;
        set_why(out, TC_WHY_AMBIGUOUS, "'%s' is ambiguous: it could be ", text);
        moves_text(p, out->candidates, out->ncandidates, out->message, sizeof out->message);
        free(list);
        return -1;
    }
    if (exact == 1) {
        /* tc_move_parse refused what is one legal move: only possible for
         * a coordinate text naming a non-pawn, read here by its cell */
        out->why = TC_WHY_LEGAL;
        out->move = out->candidates[0];
        out->from = TC_MOVE_FROM(out->move);
        free(list);
        return 0;
    }
    if (promo_alt && !sp.promo) {
        int k = 0;
        for (int i = 0; i < nl && k < TC_EXPLAIN_CANDIDATES; i++) {
            tc_move lm = list->moves[i];
            int f = TC_MOVE_FROM(lm), mine = 0;
            for (int c = 0; c < ncand; c++)
                mine |= cand[c] == f;
            if (mine && TC_MOVE_TO(lm) == sp.to && TC_MOVE_PROMO(lm))
                out->candidates[k++] = lm;
        }
        out->ncandidates = k;
        set_why(out, TC_WHY_NEEDS_PROMOTION, "a pawn reaching %s must promote: ", dest);
        moves_text(p, out->candidates, k, out->message, sizeof out->message);
        free(list);
        return -1;
    }
    if (plain_alt && sp.promo) {
        set_why(out, TC_WHY_SYNTAX, "'%s': only a pawn reaching the %s back rank promotes", text,
                us ? "white" : "black");
        free(list);
        return -1;
    }

    /* a line of the piece reaches the cell, yet the move is illegal: the king */
    for (int c = 0; c < ncand; c++) {
        tc_path tmp;
        line_query q = {p, p->board, TC_LINES_MOVES, sp.to};
        sink sk = {NULL, &tmp, 0};
        gen_lines(&q, p->board[cand[c]], cand[c], &sk);
        if (sk.found) {
            explain_king_attacked(p, cand[c], sp.to, sp.promo, out);
            free(list);
            return -1;
        }
    }

    /* no line reaches it: say why, and where the piece(s) can go */
    int k = 0;
    for (int i = 0; i < nl; i++) {
        int f = TC_MOVE_FROM(list->moves[i]), mine = 0;
        for (int c = 0; c < ncand; c++)
            mine |= cand[c] == f;
        if (mine) {
            if (k < TC_EXPLAIN_CANDIDATES)
                out->candidates[k] = list->moves[i];
            k++;
        }
    }
    free(list);
    out->ncandidates = k < TC_EXPLAIN_CANDIDATES ? k : TC_EXPLAIN_CANDIDATES;
    /* of several pieces, the one whose lines lead there on an empty board
     * is the one meant (Bc4: the f1 bishop, blocked by its own pawn) */
    int meant = ncand == 1 ? cand[0] : -1;
    if (ncand > 1) {
        int reach = 0;
        for (int c = 0; c < ncand; c++) {
            tc_path tmp;
            line_query q = {p, NULL, TC_LINES_MOVES, sp.to};
            sink sk = {NULL, &tmp, 0};
            gen_lines(&q, p->board[cand[c]], cand[c], &sk);
            if (sk.found) {
                reach++;
                meant = cand[c];
            }
        }
        if (reach != 1)
            meant = -1;
    }
    if (meant >= 0 && ncand > 1) {
        /* where that one piece can go */
        k = 0;
        for (int i = 0; i < out->ncandidates; i++)
            if (TC_MOVE_FROM(out->candidates[i]) == meant)
                out->candidates[k++] = out->candidates[i];
        out->ncandidates = k;
        ncand = 1;
        cand[0] = meant;
        out->from = meant;
    }
    char reason[480] = "";
    if (ncand == 1) {
        char who[48];
        piece_on(p, cand[0], who, sizeof who);
        explain_unreachable(p, cand[0], sp.to, out, reason, sizeof reason);
        set_why(out, TC_WHY_CANNOT_REACH, "%s cannot reach %s", who, dest);
    } else {
        set_why(out, TC_WHY_CANNOT_REACH, "no %s %s can reach %s", colour_name(us), tc_piece_name(sp.type), dest);
        if (p->board[sp.to] && TC_COLOUR(p->board[sp.to]) == us)
            snprintf(reason, sizeof reason, "%s holds a %s %s", dest, colour_name(us), tc_piece_name(p->board[sp.to]));
    }
    if (reason[0])
        appendf(out->message, sizeof out->message, ": %s", reason);
    if (k == 0)
        appendf(out->message, sizeof out->message, "; %s no legal move", ncand == 1 ? "it has" : "they have");
    else {
        appendf(out->message, sizeof out->message, "; %s: ", ncand == 1 ? "it can play" : "they can play");
        moves_text(p, out->candidates, out->ncandidates, out->message, sizeof out->message);
        if (k > out->ncandidates)
            appendf(out->message, sizeof out->message, " and %d more", k - out->ncandidates);
    }
    return -1;
}
