/* Notation: coordinate moves and SAN (docs/rules.md section 7), out and in. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

static const char type_chars[] = " PNBRQK";

/* ---------------------------------------------------------------- output */

void tc_move_to_uci(const tc_position *p, tc_move m, char *buf)
{
    const tc_variant *v = p->v;
    if (!m) {
        strcpy(buf, "0000");
        return;
    }
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        int us = TC_COLOUR(p->board[from]), s = kind == TC_MOVE_CASTLE_Q;
        if (v->castle_uci_rook[us][s])
            to = v->castle_rook[us][s];
    }
    char a[8], b[8];
    tc_cell_name(v, from, a);
    tc_cell_name(v, to, b);
    int promo = TC_MOVE_PROMO(m);
    size_t la = strlen(a), lb = strlen(b), n = la + lb;
    memcpy(buf, a, la);
    memcpy(buf + la, b, lb);
    if (promo)
        buf[n++] = (char)tolower((unsigned char)type_chars[promo]);
    buf[n] = '\0';
}

void tc_move_to_san(const tc_position *p, tc_move m, char *buf)
{
    const tc_variant *v = p->v;
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    int pc = p->board[from], type = TC_TYPE(pc);
    char *s = buf;
    char cell[8];
    if (kind == TC_MOVE_CASTLE_K) {
        s += sprintf(s, "O-O");
    } else if (kind == TC_MOVE_CASTLE_Q) {
        s += sprintf(s, "O-O-O");
    } else {
        tc_move list[TC_MAX_MOVES];
        int n = tc_gen_legal(p, list);
        bool capture = kind == TC_MOVE_EP || p->board[to] != 0;
        int fx = from % v->W, fy = from / v->W;
        if (type == TC_PAWN) {
            /* rivals: other pawns that can move to the same cell the same way */
            bool same_file = false, any = false;
            for (int i = 0; i < n; i++) {
                tc_move o = list[i];
                int of = TC_MOVE_FROM(o);
                if (of == from || TC_MOVE_TO(o) != to || TC_TYPE(p->board[of]) != TC_PAWN ||
                    TC_MOVE_PROMO(o) != TC_MOVE_PROMO(m))
                    continue;
                bool ocap = TC_MOVE_KIND(o) == TC_MOVE_EP || p->board[to] != 0;
                if (ocap != capture)
                    continue;
                any = true;
                if (of % v->W == fx)
                    same_file = true;
            }
            if (capture) {
                *s++ = (char)('a' + fx);
                if (same_file)
                    s += sprintf(s, "%d", fy + 1);
                *s++ = 'x';
            } else if (any) {
                tc_cell_name(v, from, cell);
                s += sprintf(s, "%s", cell);
            }
        } else {
            *s++ = type_chars[type];
            if (type != TC_KING) {
                bool any = false, file_clash = false, rank_clash = false;
                for (int i = 0; i < n; i++) {
                    int of = TC_MOVE_FROM(list[i]);
                    if (of == from || TC_MOVE_TO(list[i]) != to || p->board[of] != pc)
                        continue;
                    any = true;
                    file_clash |= of % v->W == fx;
                    rank_clash |= of / v->W == fy;
                }
                if (any) {
                    if (!file_clash)
                        *s++ = (char)('a' + fx);
                    else if (!rank_clash)
                        s += sprintf(s, "%d", fy + 1);
                    else {
                        tc_cell_name(v, from, cell);
                        s += sprintf(s, "%s", cell);
                    }
                }
            }
            if (capture)
                *s++ = 'x';
        }
        tc_cell_name(v, to, cell);
        s += sprintf(s, "%s", cell);
        if (TC_MOVE_PROMO(m)) {
            *s++ = '=';
            *s++ = type_chars[TC_MOVE_PROMO(m)];
        }
    }
    /* check and mate marks, from the position after the move */
    tc_position *q = tc_position_clone(p);
    if (q) {
        tc_make_move(q, m);
        if (tc_in_check(q)) {
            tc_move reply[TC_MAX_MOVES];
            *s++ = tc_gen_legal(q, reply) ? '+' : '#';
        }
        tc_position_free(q);
    }
    *s = '\0';
}

/* ---------------------------------------------------------------- input */

static int promo_type(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'Q': return TC_QUEEN;
    case 'R': return TC_ROOK;
    case 'B': return TC_BISHOP;
    case 'N': return TC_KNIGHT;
    }
    return 0;
}

/* Reads a cell name at s ("d12"); returns its length or 0. */
static int read_cell(const tc_variant *v, const char *s, int *cell)
{
    if (s[0] < 'a' || s[0] >= 'a' + v->W || !isdigit((unsigned char)s[1]))
        return 0;
    int len = isdigit((unsigned char)s[2]) ? 3 : 2;
    char tmp[4] = {s[0], s[1], len == 3 ? s[2] : '\0', '\0'};
    *cell = tc_cell_parse(v, tmp);
    return *cell >= 0 ? len : 0;
}

int tc_move_from_uci(const tc_position *p, const char *text, tc_move *out, tc_error *err)
{
    const tc_variant *v = p->v;
    int from, to, promo = 0;
    int a = read_cell(v, text, &from);
    int b = a ? read_cell(v, text + a, &to) : 0;
    if (!a || !b) {
        tc_set_error(err, "'%.40s' is not a coordinate move", text);
        return -1;
    }
    const char *rest = text + a + b;
    if (*rest) {
        promo = promo_type(*rest);
        if (!promo || rest[1]) {
            tc_set_error(err, "'%.40s' has a bad promotion suffix", text);
            return -1;
        }
    }
    tc_move list[TC_MAX_MOVES];
    int n = tc_gen_legal(p, list);
    int us = p->side;
    for (int i = 0; i < n; i++) {
        tc_move m = list[i];
        if (TC_MOVE_FROM(m) != from || TC_MOVE_PROMO(m) != promo)
            continue;
        int kind = TC_MOVE_KIND(m);
        bool castle = kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q;
        if (castle) {
            int s = kind == TC_MOVE_CASTLE_Q;
            /* king-takes-own-rook always; the king's two-cell move unless a
             * plain king step has the same cells */
            if (to == v->castle_rook[us][s] || (to == TC_MOVE_TO(m) && !v->castle_uci_rook[us][s])) {
                *out = m;
                return 0;
            }
        } else if (TC_MOVE_TO(m) == to) {
            *out = m;
            return 0;
        }
    }
    if (!promo) {
        for (int i = 0; i < n; i++)
            if (TC_MOVE_FROM(list[i]) == from && TC_MOVE_TO(list[i]) == to && TC_MOVE_PROMO(list[i])) {
                tc_set_error(err, "'%.40s' needs a promotion piece (q, r, b or n)", text);
                return -1;
            }
    }
    tc_set_error(err, "illegal move '%.40s'", text);
    return -1;
}

bool tc_castle_text(const char *s, int *side)
{
    char t[16];
    size_t n = 0;
    for (; *s && n < sizeof t - 1; s++)
        if (*s != '-')
            t[n++] = (char)toupper((unsigned char)*s);
    t[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (t[i] == '0')
            t[i] = 'O';
    if (strcmp(t, "OO") == 0) {
        *side = 0;
        return true;
    }
    if (strcmp(t, "OOO") == 0) {
        *side = 1;
        return true;
    }
    return false;
}

/* SAN: [piece] [from file][from rank] [x:-] to-cell [=] [promotion]. `s` is
 * the text without annotation marks, `text` the original for messages. */
int tc_san_split(const tc_variant *v, const char *s, const char *text, tc_san_parts *out, tc_error *err)
{
    int type = TC_PAWN;
    const char *q = s;
    out->lettered = strchr("NBRQKP", *q) && *q;
    if (out->lettered) {
        type = *q == 'P' ? TC_PAWN : (int)(strchr(type_chars, *q) - type_chars);
        q++;
    }
    char body[64];
    snprintf(body, sizeof body, "%s", q);
    size_t bl = strlen(body);
    int promo = 0;
    if (bl >= 2 && isalpha((unsigned char)body[bl - 1]) &&
        (isdigit((unsigned char)body[bl - 2]) || body[bl - 2] == '=' || body[bl - 2] == '/')) {
        promo = promo_type(body[bl - 1]);
        if (!promo) {
            tc_set_error(err, "'%s': bad promotion piece '%c'", text, body[bl - 1]);
            return -1;
        }
        body[--bl] = '\0';
        if (bl && (body[bl - 1] == '=' || body[bl - 1] == '/'))
            body[--bl] = '\0';
    }
    /* destination: the last cell name in the body */
    int to = -1, to_at = -1;
    for (int i = (int)bl - 2; i >= 0; i--) {
        int c, len = read_cell(v, body + i, &c);
        if (len && (size_t)(i + len) == bl) {
            to = c;
            to_at = i;
            break;
        }
    }
    if (to < 0) {
        tc_set_error(err, "'%s' is not a move: no destination cell on this %dx%d board", text, v->W, v->H);
        return -1;
    }
    body[to_at] = '\0';
    size_t pl = strlen(body);
    if (pl && strchr("x:-", body[pl - 1]))
        body[--pl] = '\0';
    int from_file = -1, from_rank = -1;
    const char *d = body;
    if (*d >= 'a' && *d < 'a' + v->W) {
        from_file = *d - 'a';
        d++;
    }
    if (isdigit((unsigned char)*d)) {
        from_rank = 0;
        while (isdigit((unsigned char)*d) && from_rank <= v->H)
            from_rank = from_rank * 10 + (*d++ - '0');
        from_rank--;
    }
    if (*d) {
        tc_set_error(err, "'%s' is not a move: cannot read '%s'", text, body);
        return -1;
    }
    out->type = type;
    out->promo = promo;
    out->to = to;
    out->from_file = from_file;
    out->from_rank = from_rank;
    return 0;
}

int tc_move_parse(const tc_position *p, const char *text, tc_move *out, tc_error *err)
{
    const tc_variant *v = p->v;
    char s[64];
    size_t n = 0;
    if (!text || !*text) {
        tc_set_error(err, "empty move");
        return -1;
    }
    if (strlen(text) > 40) {
        tc_set_error(err, "move text too long: '%.20s...'", text);
        return -1;
    }
    /* drop annotation marks */
    for (const char *q = text; *q; q++)
        if (!strchr("+#!?", *q) && !isspace((unsigned char)*q))
            s[n++] = *q;
    s[n] = '\0';
    if (!n) {
        tc_set_error(err, "'%s' is not a move", text);
        return -1;
    }
    tc_move list[TC_MAX_MOVES];
    int nl = tc_gen_legal(p, list);

    int side;
    if (tc_castle_text(s, &side)) {
        int kind = side ? TC_MOVE_CASTLE_Q : TC_MOVE_CASTLE_K;
        for (int i = 0; i < nl; i++)
            if (TC_MOVE_KIND(list[i]) == kind) {
                *out = list[i];
                return 0;
            }
        tc_set_error(err, "illegal move '%s': castling %s is not possible here", text,
                     side ? "queenside" : "kingside");
        return -1;
    }
    tc_error uerr;
    if (tc_move_from_uci(p, s, out, &uerr) == 0)
        return 0;

    tc_san_parts sp;
    if (tc_san_split(v, s, text, &sp, err))
        return -1;
    int type = sp.type, promo = sp.promo, to = sp.to, from_file = sp.from_file, from_rank = sp.from_rank;
    int found = 0;
    tc_move match = 0;
    for (int i = 0; i < nl; i++) {
        tc_move m = list[i];
        int f = TC_MOVE_FROM(m), k = TC_MOVE_KIND(m);
        if (k == TC_MOVE_CASTLE_K || k == TC_MOVE_CASTLE_Q)
            continue;
        /* a full source cell without a piece letter ("g1-f3") names any piece */
        bool any_type = !sp.lettered && from_file >= 0 && from_rank >= 0;
        if (TC_MOVE_TO(m) != to || (!any_type && TC_TYPE(p->board[f]) != type) || TC_MOVE_PROMO(m) != promo)
            continue;
        if ((from_file >= 0 && f % v->W != from_file) || (from_rank >= 0 && f / v->W != from_rank))
            continue;
        found++;
        match = m;
    }
    if (found == 1) {
        *out = match;
        return 0;
    }
    if (found > 1) {
        tc_set_error(err, "ambiguous move '%s'", text);
        return -1;
    }
    if (type == TC_PAWN && !promo) {
        for (int i = 0; i < nl; i++)
            if (TC_MOVE_TO(list[i]) == to && TC_MOVE_PROMO(list[i]) &&
                TC_TYPE(p->board[TC_MOVE_FROM(list[i])]) == TC_PAWN) {
                tc_set_error(err, "'%s' needs a promotion piece (=Q, =R, =B or =N)", text);
                return -1;
            }
    }
    tc_set_error(err, "illegal move '%s'", text);
    return -1;
}

/* Move numbers ("12.", "12...") and results are skipped. */
static bool skip_token(const char *t)
{
    if (!strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2") || !strcmp(t, "*"))
        return true;
    const char *q = t;
    while (isdigit((unsigned char)*q))
        q++;
    if (q == t)
        return false;
    while (*q == '.')
        q++;
    return *q == '\0' && q[-1] == '.';
}

const char *tc_moves_next(const char *s, char *tok, size_t size)
{
    for (;;) {
        while (s && isspace((unsigned char)*s))
            s++;
        if (!s || !*s)
            return NULL;
        size_t n = 0;
        while (*s && !isspace((unsigned char)*s)) {
            if (n < size - 1)
                tok[n++] = *s;
            s++;
        }
        tok[n] = '\0';
        /* "1.e4" style: a move number glued to the move */
        char *dot = strrchr(tok, '.');
        if (dot && dot[1] && isdigit((unsigned char)tok[0])) {
            bool num = true;
            for (char *c = tok; c < dot; c++)
                num &= isdigit((unsigned char)*c) || *c == '.';
            if (num)
                memmove(tok, dot + 1, strlen(dot + 1) + 1);
        }
        if (!skip_token(tok))
            return s;
    }
}

int tc_play_moves(tc_position *p, const char *moves, tc_error *err)
{
    int start = p->ply;
    char tok[64];
    for (const char *s = moves; (s = tc_moves_next(s, tok, sizeof tok)) != NULL;) {
        tc_move m;
        if (tc_move_parse(p, tok, &m, err)) {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "move %d (%s): ", p->ply - start + 1, p->side ? "black" : "white");
            tc_error_prefix(err, prefix);
            while (p->ply > start)
                tc_unmake_move(p);
            return -1;
        }
        tc_make_move(p, m);
    }
    return 0;
}

/* ---------------------------------------------------------------- perft divide */

uint64_t tc_perft_divide(tc_position *p, int depth, tc_divide_fn fn, void *ctx)
{
    if (depth <= 0)
        return tc_perft(p, depth);
    tc_move *list = malloc(sizeof(tc_move) * TC_MAX_MOVES);
    if (!list)
        return 0;
    int n = tc_gen_legal(p, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        char text[16];
        tc_move_to_uci(p, list[i], text);
        tc_make_move(p, list[i]);
        uint64_t k = tc_perft(p, depth - 1);
        tc_unmake_move(p);
        fn(text, k, ctx);
        total += k;
    }
    free(list);
    return total;
}
