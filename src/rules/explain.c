/* Explain: the reason a move text is not a legal move here, as data (cells,
 * moves, paths) and as one line naming cells. Built on the line generator
 * of paths.c; no I/O. */
#include "paths.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
        tc_appendf(buf, n, "%s%s %s via %s", i ? "; " : "", tc_piece_name(pa->piece), cell, path);
        joins |= pa->joins_all;
    }
    if (set->total > set->count)
        tc_appendf(buf, n, "; and %d more", set->total - set->count);
    if (joins) {
        char legend[96];
        tc_join_legend(joins, legend, sizeof legend);
        tc_appendf(buf, n, " (%s)", legend);
    }
}

/* "Nf3 or Nh3", "a3, a4, ... and 4 more": at most 12 moves of `total`. */
#define MOVES_SHOWN 12
static void moves_text(const tc_position *p, const tc_move *moves, int n, int total, char *buf, size_t size)
{
    int shown = n < MOVES_SHOWN ? n : MOVES_SHOWN;
    for (int i = 0; i < shown; i++) {
        char san[32];
        tc_move_to_san(p, moves[i], san);
        tc_appendf(buf, size, "%s%s", i ? (i + 1 == shown && shown == total ? " or " : ", ") : "", san);
    }
    if (total > shown)
        tc_appendf(buf, size, " and %d more", total - shown);
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
    snprintf(hint, n, "write moves as SAN (e4, Nf3, exd5, O-O, e8=Q) or as coordinates (e2e4, e7e8q)");
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
    if (!v->castle_ok[us] || !v->castle_side[us][side]) {
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: this board's setup has no %s king on file e with a rook on file %c",
                name, tc_colour_word(us), side ? 'a' : 'h');
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
        set_why(out, TC_WHY_CANNOT_CASTLE, "cannot castle %s: there is no %s rook on %s", name, tc_colour_word(us), cell2);
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
                    tc_colour_word(TC_COLOUR(p->board[c])), tc_piece_name(p->board[c]));
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
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: the %s king on %s is in check and would stay attacked by %s",
                who, dest, tc_colour_word(us), kc, text);
    else
        set_why(out, TC_WHY_KING_ATTACKED, "%s cannot go to %s: it would expose the %s king on %s to %s",
                who, dest, tc_colour_word(us), kc, text);
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
        snprintf(why, n, "%s holds a %s %s", tname, tc_colour_word(us), tc_piece_name(p->board[to]));
        return;
    }
    /* the same lines on an empty board: does any lead there? */
    tc_line_query q = {p, NULL, TC_LINES_MOVES, to};
    tc_sink s = {NULL, &out->blocked, 0};
    tc_gen_lines(&q, piece, from, &s);
    if (!s.found) {
        out->blocked.len = 0;
        if (TC_TYPE(piece) == TC_PAWN) {
            tc_line_query qa = {p, p->board, TC_LINES_ATTACKS, to};
            tc_path tmp;
            tc_sink sa = {NULL, &tmp, 0};
            tc_gen_lines(&qa, piece, from, &sa);
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
                     tc_colour_word(TC_COLOUR(p->board[c])), tc_piece_name(p->board[c]), cn);
            return;
        }
    }
    /* only the push cells: a pawn's two-step needs the first cell empty too */
}

/// A move text being explained: its parts and the pieces it can mean, with
/// the legal moves of the position.
typedef struct {
    const tc_position *p;
    const char *text;
    tc_san_parts sp;
    int coord; /* a source cell and no piece letter: any piece there */
    int cand[TC_MAX_CELLS], ncand;
    tc_move *legal;
    int nlegal;
} reading;

static int is_candidate(const reading *r, int cell)
{
    for (int c = 0; c < r->ncand; c++)
        if (r->cand[c] == cell)
            return 1;
    return 0;
}

/* Does a line of the piece on `from` reach `to`, on the board or (board
 * NULL) on an empty one? */
static int line_reaches(const tc_position *p, const uint8_t *board, int from, int to)
{
    tc_path tmp;
    tc_line_query q = {p, board, TC_LINES_MOVES, to};
    tc_sink sk = {NULL, &tmp, 0};
    tc_gen_lines(&q, p->board[from], from, &sk);
    return sk.found > 0;
}

/* Reads the text apart (syntax, castling); 1 when that already explains it. */
static int read_text(reading *r, tc_explanation *out)
{
    const tc_position *p = r->p;
    const tc_variant *v = p->v;
    int us = p->side;
    char s[64];
    size_t n = 0;
    for (const char *c = r->text; *c && n < sizeof s - 1; c++)
        if (!strchr("+#!?", *c) && !isspace((unsigned char)*c))
            s[n++] = *c;
    s[n] = '\0';
    int side;
    if (n && tc_castle_text(s, &side)) {
        explain_castle(p, side, out);
        return 1;
    }
    tc_error err;
    if (!n || tc_san_split(v, s, r->text, &r->sp, &err)) {
        char hint[200];
        if (syntax_hint(p, s, hint, sizeof hint))
            set_why(out, TC_WHY_SYNTAX, "'%s' is not a move: %s", r->text, hint);
        else
            set_why(out, TC_WHY_SYNTAX, "%s; %s", n ? err.msg : "not a move", hint);
        return 1;
    }
    const tc_san_parts *sp = &r->sp;
    out->to = sp->to;
    r->coord = !sp->lettered && sp->from_file >= 0 && sp->from_rank >= 0;
    int from = r->coord && sp->from_rank < v->H ? sp->from_rank * v->W + sp->from_file : -1;
    /* the king's two-cell move or king-takes-own-rook in coordinates */
    if (from >= 0 && from == v->castle_king[us] && v->castle_ok[us] && p->board[from] == TC_PIECE(us, TC_KING)) {
        int plain = 0;
        for (int i = 0; i < v->nking[from]; i++)
            plain |= v->king[from][i] == sp->to;
        for (int sd = 0; sd < 2; sd++)
            if (sp->to == v->castle_rook[us][sd] || (sp->to == v->castle_king_to[us][sd] && !plain)) {
                explain_castle(p, sd, out);
                return 1;
            }
    }
    return 0;
}

/* The pieces the text can mean; 1 when there is none. */
static int find_pieces(reading *r, tc_explanation *out)
{
    const tc_position *p = r->p;
    const tc_variant *v = p->v;
    const tc_san_parts *sp = &r->sp;
    int us = p->side;
    r->ncand = 0;
    if (r->coord) {
        int from = sp->from_rank < v->H ? sp->from_rank * v->W + sp->from_file : -1;
        char cell[8];
        tc_cell_name(v, from, cell);
        out->from = from;
        if (from < 0 || !p->board[from]) {
            set_why(out, TC_WHY_NO_PIECE, "there is no piece on %s", from < 0 ? "that cell" : cell);
            return 1;
        }
        out->piece = p->board[from];
        if (TC_COLOUR(p->board[from]) != us) {
            set_why(out, TC_WHY_NOT_YOURS, "the %s on %s is %s's, and %s is to move", tc_piece_name(p->board[from]),
                    cell, us ? "White" : "Black", us ? "Black" : "White");
            return 1;
        }
        r->cand[r->ncand++] = from;
        return 0;
    }
    BITS_FOREACH(c, p->pieces[TC_PIECE(us, sp->type)], {
        if ((sp->from_file < 0 || c % v->W == sp->from_file) && (sp->from_rank < 0 || c / v->W == sp->from_rank))
            r->cand[r->ncand++] = c;
    })
    out->piece = TC_PIECE(us, sp->type);
    if (r->ncand == 1)
        out->from = r->cand[0];
    if (r->ncand)
        return 0;
    char where[24] = "";
    if (sp->from_file >= 0 && sp->from_rank >= 0)
        snprintf(where, sizeof where, " on %c%d", 'a' + sp->from_file, sp->from_rank + 1);
    else if (sp->from_file >= 0)
        snprintf(where, sizeof where, " on file %c", 'a' + sp->from_file);
    else if (sp->from_rank >= 0)
        snprintf(where, sizeof where, " on rank %d", sp->from_rank + 1);
    set_why(out, TC_WHY_NO_PIECE, "%s has no %s%s", us ? "Black" : "White", tc_piece_name(sp->type), where);
    return 1;
}

/* Legal moves to the cell that the text does not pick out: several
 * (ambiguous), only with a promotion piece, or only without one. */
static int explain_near_miss(const reading *r, tc_explanation *out)
{
    const tc_position *p = r->p;
    const tc_san_parts *sp = &r->sp;
    int exact = 0, promo_alt = 0, plain_alt = 0;
    for (int i = 0; i < r->nlegal; i++) {
        tc_move lm = r->legal[i];
        int k = TC_MOVE_KIND(lm);
        if (!is_candidate(r, TC_MOVE_FROM(lm)) || k == TC_MOVE_CASTLE_K || k == TC_MOVE_CASTLE_Q ||
            TC_MOVE_TO(lm) != sp->to)
            continue;
        if (TC_MOVE_PROMO(lm) == sp->promo) {
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
        set_why(out, TC_WHY_AMBIGUOUS, "'%s' is ambiguous: it could be ", r->text);
        moves_text(p, out->candidates, out->ncandidates, exact, out->message, sizeof out->message);
        return 1;
    }
    if (exact == 1) {
        /* tc_move_parse found no move where this reading finds one */
        set_why(out, TC_WHY_SYNTAX, "'%s' could not be read as a move", r->text);
        return 1;
    }
    if (promo_alt && !sp->promo) {
        int k = 0;
        for (int i = 0; i < r->nlegal && k < TC_EXPLAIN_CANDIDATES; i++) {
            tc_move lm = r->legal[i];
            if (is_candidate(r, TC_MOVE_FROM(lm)) && TC_MOVE_TO(lm) == sp->to && TC_MOVE_PROMO(lm))
                out->candidates[k++] = lm;
        }
        out->ncandidates = k;
        char dest[8];
        tc_cell_name(p->v, sp->to, dest);
        set_why(out, TC_WHY_NEEDS_PROMOTION, "a pawn reaching %s must promote: ", dest);
        moves_text(p, out->candidates, k, k, out->message, sizeof out->message);
        return 1;
    }
    if (plain_alt && sp->promo) {
        set_why(out, TC_WHY_SYNTAX, "'%s': only a pawn reaching the %s back rank promotes", r->text,
                p->side ? "white" : "black");
        return 1;
    }
    return 0;
}

/* No line of the pieces reaches the cell: why, and where they can go. */
static void explain_no_line(reading *r, tc_explanation *out)
{
    const tc_position *p = r->p;
    const tc_san_parts *sp = &r->sp;
    int us = p->side;
    /* of several pieces, the one whose lines lead there on an empty board
     * is the one meant (Bc4: the f1 bishop, blocked by its own pawn) */
    if (r->ncand > 1) {
        int reach = 0, meant = -1;
        for (int c = 0; c < r->ncand; c++)
            if (line_reaches(p, NULL, r->cand[c], sp->to)) {
                reach++;
                meant = r->cand[c];
            }
        if (reach == 1) {
            r->cand[0] = meant;
            r->ncand = 1;
            out->from = meant;
        }
    }
    int k = 0;
    for (int i = 0; i < r->nlegal; i++)
        if (is_candidate(r, TC_MOVE_FROM(r->legal[i]))) {
            if (k < TC_EXPLAIN_CANDIDATES)
                out->candidates[k] = r->legal[i];
            k++;
        }
    out->ncandidates = k < TC_EXPLAIN_CANDIDATES ? k : TC_EXPLAIN_CANDIDATES;
    char reason[480] = "", dest[8];
    tc_cell_name(p->v, sp->to, dest);
    if (r->ncand == 1) {
        char who[48];
        piece_on(p, r->cand[0], who, sizeof who);
        explain_unreachable(p, r->cand[0], sp->to, out, reason, sizeof reason);
        set_why(out, TC_WHY_CANNOT_REACH, "%s cannot reach %s", who, dest);
    } else {
        set_why(out, TC_WHY_CANNOT_REACH, "no %s %s can reach %s", tc_colour_word(us), tc_piece_name(sp->type), dest);
        if (p->board[sp->to] && TC_COLOUR(p->board[sp->to]) == us)
            snprintf(reason, sizeof reason, "%s holds a %s %s", dest, tc_colour_word(us), tc_piece_name(p->board[sp->to]));
    }
    if (reason[0])
        tc_appendf(out->message, sizeof out->message, ": %s", reason);
    if (k == 0) {
        tc_appendf(out->message, sizeof out->message, "; %s no legal move", r->ncand == 1 ? "it has" : "they have");
    } else {
        tc_appendf(out->message, sizeof out->message, "; %s: ", r->ncand == 1 ? "it can play" : "they can play");
        moves_text(p, out->candidates, out->ncandidates, k, out->message, sizeof out->message);
    }
}

int tc_explain_move(const tc_position *p, const char *text, tc_explanation *out)
{
    memset(out, 0, sizeof *out);
    out->from = out->to = out->king = out->blocker = -1;
    if (!p || !text || !*text) {
        set_why(out, TC_WHY_SYNTAX, p ? "empty move" : "no position");
        return -1;
    }
    if (strlen(text) > 40) {
        set_why(out, TC_WHY_SYNTAX, "move text too long: '%.20s...'", text);
        return -1;
    }
    out->status = tc_position_status(p);
    if (out->status != TC_ONGOING) {
        if (out->status == TC_CHECKMATE)
            set_why(out, TC_WHY_GAME_OVER, "the game is over: checkmate, %s wins", p->side ? "White" : "Black");
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
    reading *r = malloc(sizeof *r);
    tc_movelist *list = malloc(sizeof *list);
    if (!r || !list) {
        free(r);
        free(list);
        set_why(out, TC_WHY_SYNTAX, "out of memory");
        return -1;
    }
    r->p = p;
    r->text = text;
    if (!read_text(r, out) && !find_pieces(r, out)) {
        r->nlegal = tc_generate_legal(p, list);
        r->legal = list->moves;
        if (!explain_near_miss(r, out)) {
            /* a line of a piece reaches the cell, yet the move is illegal:
             * the own king would be attacked */
            int exposed = -1;
            for (int c = 0; c < r->ncand && exposed < 0; c++)
                if (line_reaches(p, p->board, r->cand[c], r->sp.to))
                    exposed = r->cand[c];
            if (exposed >= 0)
                explain_king_attacked(p, exposed, r->sp.to, r->sp.promo, out);
            else
                explain_no_line(r, out);
        }
    }
    free(list);
    free(r);
    return -1;
}

int tc_explain_line(const char *text, const tc_explanation *x, char *buf, size_t n)
{
    if (!x)
        return snprintf(buf, n, "no explanation");
    if (x->why == TC_WHY_LEGAL)
        return snprintf(buf, n, "'%.40s' is a legal move", text ? text : "");
    if (x->why == TC_WHY_SYNTAX || x->why == TC_WHY_AMBIGUOUS || x->why == TC_WHY_NEEDS_PROMOTION ||
        x->why == TC_WHY_GAME_OVER)
        return snprintf(buf, n, "%s", x->message);
    return snprintf(buf, n, "illegal move '%.40s': %s", text ? text : "", x->message);
}

int tc_play_moves_explain(tc_position *p, const char *moves, tc_explanation *out, char *text, size_t n,
                          int *colour)
{
    int start = p->ply;
    char tok[64];
    for (const char *s = moves; (s = tc_moves_next(s, tok, sizeof tok)) != NULL;) {
        tc_move m;
        tc_error err;
        if (tc_move_parse(p, tok, &m, &err) == 0) {
            tc_make_move(p, m);
            continue;
        }
        int number = p->ply - start + 1;
        if (colour)
            *colour = p->side;
        if (text && n)
            snprintf(text, n, "%s", tok);
        if (tc_explain_move(p, tok, out) == 0) {
            /* the parser and the explanation disagree: keep the parser's word */
            out->why = TC_WHY_SYNTAX;
            snprintf(out->message, sizeof out->message, "%s", err.msg);
        }
        while (p->ply > start)
            tc_unmake_move(p);
        return number;
    }
    return 0;
}
